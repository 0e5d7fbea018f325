# migrate-check's bisheng is known to work (its own tests build with it): no test project.
set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
