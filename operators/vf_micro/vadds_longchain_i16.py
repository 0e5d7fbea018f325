"""vf_micro row vadds_longchain_i16."""
from .longchain import vadds_variant

KERNEL, HOST = vadds_variant(16)
