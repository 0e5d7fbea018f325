"""KvRmsNormRopeCache: RMSNorm + RoPE + KV-cache scatter, ported from the vendor sample in both
programming models (``membase/full_load`` and ``regbase/full_load``) on one shared host side."""
