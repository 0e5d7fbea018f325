# migrate-check's ASC package answers any version request (it follows the vendor's current interface).
set(PACKAGE_VERSION "9.0.0")
set(PACKAGE_VERSION_COMPATIBLE TRUE)
if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
endif()
