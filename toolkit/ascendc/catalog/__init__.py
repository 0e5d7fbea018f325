"""The catalog of the vendor's Ascend C API, as data (``api_catalog.json``, generated from the API reference by
``scripts/gen_api_catalog.py``): every documented name with its family, header, doc pages, Ascend 950
support, prototypes, dtypes and whether the emulator is meant to run it. :mod:`.lookup` finds the entry of
any spelling of a name; :mod:`.status` says which names the toolkit implements."""
