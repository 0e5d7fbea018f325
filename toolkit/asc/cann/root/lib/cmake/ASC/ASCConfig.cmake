# migrate-check's ASC package (the toolkit root of `migrate-check cann-home`): what `find_package(ASC)` gives a
# kernel project, as the vendor's does: the ASC language (`project(... LANGUAGES ASC)`: .asc sources compiled
# by our bisheng for the migrate-check emulator), CMAKE_ASC_RUN_MODE, CMAKE_ASC_ARCHITECTURES, and the
# libraries samples link (platform tiling_api ascendcl runtime register ...: the emulator stands for them, so
# they add only our include directory). Executables built this way run on the emulator when started.
get_filename_component(ASC_ROOT "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
list(FIND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/modules" _asc_found)
if(_asc_found EQUAL -1)
    list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/modules")
endif()
include("${CMAKE_CURRENT_LIST_DIR}/modules/ASCRoot.cmake")

set(CMAKE_ASC_RUN_MODE "npu" CACHE STRING "Run mode: npu, cpu, sim (all run on the migrate-check emulator)")
set_property(CACHE CMAKE_ASC_RUN_MODE PROPERTY STRINGS npu cpu sim)
if(NOT CMAKE_ASC_RUN_MODE MATCHES "^(npu|cpu|sim)$")
    message(FATAL_ERROR "CMAKE_ASC_RUN_MODE=${CMAKE_ASC_RUN_MODE}: expected npu, cpu or sim")
endif()
set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE STRING "NPU architecture: dav-3510")
foreach(_asc_arch IN LISTS CMAKE_ASC_ARCHITECTURES)
    if(NOT _asc_arch STREQUAL "dav-3510")
        message(FATAL_ERROR "CMAKE_ASC_ARCHITECTURES=${CMAKE_ASC_ARCHITECTURES}: the migrate-check emulator models "
                            "Ascend 950 (dav-3510) only")
    endif()
endforeach()
if(NOT CMAKE_ASC_COMPILER)
    set(CMAKE_ASC_COMPILER "${ASC_BISHENG}" CACHE FILEPATH "the ASC compiler (migrate-check's bisheng)")
endif()

asc_add_imported_libraries()
# A program built for the emulator is an executable that is also a shared object: every object of it,
# the host .cpp files a plain C++ compiler builds included, is position-independent code (-fPIC: CMake's
# POSITION_INDEPENDENT_CODE gives executables -fPIE, which a shared object cannot take).
add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-fPIC>")
set(ASC_FOUND TRUE)
set(ASC_INCLUDE_DIRS "${ASC_ROOT}/include")
