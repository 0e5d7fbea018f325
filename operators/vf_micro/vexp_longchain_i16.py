"""vf_micro row vexp_longchain_i16."""
from .longchain import vexp_variant

KERNEL, HOST = vexp_variant(16)
