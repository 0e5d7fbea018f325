"""Generate KvRmsNormRopeCache inputs and golden outputs (see ``operators.kv_rms_norm_rope_cache.gen_data``).

Usage: ``python scripts/gen_data.py --batch 2 --seq 16 --dv 512 --dk 128 --output DIR``.
"""
from operators.kv_rms_norm_rope_cache.gen_data import main

if __name__ == "__main__":
    raise SystemExit(main())
