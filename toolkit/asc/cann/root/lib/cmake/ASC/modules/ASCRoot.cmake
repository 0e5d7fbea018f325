# The toolkit root this package belongs to, its compiler driver, and the vendor libraries as imported
# targets (shared by ASCConfig.cmake and ascendc.cmake).
get_filename_component(ASC_ROOT "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)
file(GLOB _asc_drivers "${ASC_ROOT}/*-linux/ccec_compiler/bin/bisheng")
list(GET _asc_drivers 0 ASC_BISHENG)

# The libraries the vendor's samples link: the emulator is all of them, so each is an interface target that
# adds our include directory (acl/acl.h, kernel_operator.h ...) and links nothing. GLOBAL: every directory.
function(asc_add_imported_libraries)
    foreach(lib platform tiling_api ascendcl runtime register c_sec host_intf_pub ascendc_runtime profapi
                ge_runner graph nnopbase opapi ascend_dump error_manager mmpa ascendalog unified_dlog
                tikicpulib_cpuprof tikicpulib_stubreg)
        if(NOT TARGET ${lib})
            add_library(${lib} INTERFACE IMPORTED GLOBAL)
            set_target_properties(${lib} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${ASC_ROOT}/include")
        endif()
    endforeach()
endfunction()
