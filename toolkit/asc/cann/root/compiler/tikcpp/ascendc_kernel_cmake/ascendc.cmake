# migrate-check's ascendc.cmake (the toolkit root of `migrate-check cann-home`; also reached as
# tools/tikcpp/ascendc_kernel_cmake/ascendc.cmake): CANN's kernel CMake module for the emulator.
#
#   set(RUN_MODE "sim")                          # sim, cpu or npu: all run on the migrate-check emulator
#   set(SOC_VERSION "Ascend950PR_9599")          # an Ascend 950 part (the machine the emulator models)
#   include(${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake)
#   ascendc_library(kernels STATIC add_custom.cpp)   # device code in plain .cpp files
#   add_executable(main main.cpp)                    # #include "aclrtlaunch_add_custom.h"
#   target_link_libraries(main PRIVATE kernels)      # ACLRT_LAUNCH_KERNEL(add_custom)(blockDim, stream, ...)
#
# ascendc_library(NAME STATIC|SHARED sources...) compiles the sources with our bisheng, defines one launch
# stub per __global__ kernel (aclrtlaunch_<kernel>) and writes its header into
# ${CMAKE_CURRENT_BINARY_DIR}/include/NAME (on the library's public include path). An executable that links
# the library runs on the emulator when started: each stub launch runs as a <<<>>> launch does.
include_guard(GLOBAL)
get_filename_component(_ASCENDC_ROOT "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
include("${_ASCENDC_ROOT}/lib/cmake/ASC/modules/ASCRoot.cmake")

if(NOT DEFINED RUN_MODE OR RUN_MODE STREQUAL "")
    set(RUN_MODE "npu")
endif()
if(NOT RUN_MODE MATCHES "^(sim|cpu|npu)$")
    message(FATAL_ERROR "RUN_MODE=${RUN_MODE}: expected sim, cpu or npu")
endif()
if(NOT DEFINED SOC_VERSION OR SOC_VERSION STREQUAL "")
    set(SOC_VERSION "Ascend950PR_9599")
endif()
if(NOT SOC_VERSION MATCHES "^[Aa]scend950")
    message(FATAL_ERROR "SOC_VERSION=${SOC_VERSION}: the migrate-check emulator models the Ascend 950 parts only "
                        "(Ascend950PR_9599, Ascend950PR_*, Ascend950DT_*): set SOC_VERSION to one of them")
endif()
message(STATUS "ascendc: RUN_MODE ${RUN_MODE}, SOC_VERSION ${SOC_VERSION}: kernels run on the migrate-check emulator")

list(FIND CMAKE_MODULE_PATH "${_ASCENDC_ROOT}/lib/cmake/ASC/modules" _ascendc_found)
if(_ascendc_found EQUAL -1)
    list(APPEND CMAKE_MODULE_PATH "${_ASCENDC_ROOT}/lib/cmake/ASC/modules")
endif()
if(NOT CMAKE_ASC_COMPILER)
    set(CMAKE_ASC_COMPILER "${ASC_BISHENG}" CACHE FILEPATH "the ASC compiler (migrate-check's bisheng)")
endif()
enable_language(ASC)
asc_add_imported_libraries()

set(_ASCENDC_RUNTIME "${CMAKE_BINARY_DIR}/asc_runtime")
execute_process(COMMAND "${ASC_BISHENG}" "--asc-runtime-objects=${_ASCENDC_RUNTIME}"
                RESULT_VARIABLE _ascendc_rc ERROR_VARIABLE _ascendc_err)
if(_ascendc_rc)
    message(FATAL_ERROR "ascendc: cannot build the migrate-check runtime: ${_ascendc_err}")
endif()

function(ascendc_library name type)
    if(NOT type MATCHES "^(STATIC|SHARED)$")
        message(FATAL_ERROR "ascendc_library(${name} ${type} ...): the type is STATIC or SHARED")
    endif()
    set(srcs)
    foreach(src IN LISTS ARGN)
        get_filename_component(abs "${src}" ABSOLUTE)
        list(APPEND srcs "${abs}")
    endforeach()
    if(NOT srcs)
        message(FATAL_ERROR "ascendc_library(${name} ${type}): no kernel sources")
    endif()
    set(hdr_dir "${CMAKE_CURRENT_BINARY_DIR}/include/${name}")
    execute_process(COMMAND "${ASC_BISHENG}" "--asc-launch-headers=${hdr_dir}" ${srcs}
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(rc)
        message(FATAL_ERROR "ascendc_library(${name}): ${err}")
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${srcs})
    set_source_files_properties(${srcs} PROPERTIES LANGUAGE ASC)
    add_library(${name} ${type} ${srcs})
    # the executable that links it is also a shared object: its objects are position-independent code
    # (-fPIC; CMake's POSITION_INDEPENDENT_CODE gives executables -fPIE, which a shared object cannot take)
    set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_compile_options(${name} INTERFACE "$<$<COMPILE_LANGUAGE:C,CXX>:-fPIC>")
    target_compile_options(${name} PRIVATE "$<$<COMPILE_LANGUAGE:ASC>:--asc-launch-stubs>"
                           "$<$<COMPILE_LANGUAGE:ASC>:--npu-arch=dav-3510>")
    target_include_directories(${name} PUBLIC "${hdr_dir}" "${_ASCENDC_ROOT}/include")
    # An executable linked by the host compiler (not our bisheng) gets what bisheng would add itself: our
    # runtime (a static library's kernels call it), the entry point, a file that is also a shared object.
    set(rt "$<$<LINK_LANGUAGE:CXX>:${_ASCENDC_RUNTIME}/exe_entry.o>")
    if(type STREQUAL "STATIC")
        list(APPEND rt "$<$<LINK_LANGUAGE:CXX>:${_ASCENDC_RUNTIME}/runtime.o>")
    endif()
    target_link_libraries(${name} INTERFACE ${rt} dl m)
    target_link_options(${name} INTERFACE "$<$<LINK_LANGUAGE:CXX>:-shared>"
                        "$<$<LINK_LANGUAGE:CXX>:LINKER:-e,__asc_exe_start>" "$<$<LINK_LANGUAGE:CXX>:LINKER:-Bsymbolic>")
    if(RUN_MODE STREQUAL "cpu")
        # the host then includes tikicpulib.h (our headers: C++20) and launches with ICPU_RUN_KF
        target_compile_definitions(${name} INTERFACE ASCENDC_CPU_DEBUG)
        target_compile_options(${name} INTERFACE "$<$<COMPILE_LANGUAGE:CXX>:-std=gnu++20>")
    endif()
endfunction()
