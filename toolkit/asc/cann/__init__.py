"""A CANN-compatible toolkit root for the vendor's unchanged build flow: ``home.py`` makes it (``migrate-check
cann-home``), ``bisheng.py`` is its compiler driver (``args.py`` reads its command line), ``root/`` holds its
CMake files (``find_package(ASC)``, ``ascendc.cmake``) and scripts, ``stubs.py`` writes the
``aclrtlaunch_<kernel>.h`` launch stubs of ``ascendc_library()``."""
