# Sanitizer and fuzzer builds of tilec's own code.
#
# TILEC_SANITIZE (e.g. "address,undefined") instruments tilec's code: the
# compiler, the runtime, the tools and the tests. The MLIR and LLVM archives
# stay as Debian built them, which is what "sanitize only what is ours" costs:
# a bug inside MLIR is seen only where our code touches its memory.
# TILEC_ENABLE_FUZZER (clang only) adds libFuzzer's coverage counters to the
# same code and builds tools/tilec-fuzz. scripts/test.sh builds both into
# build-sanitize/ with clang-22.

set(TILEC_SANITIZE "" CACHE STRING
    "Sanitizers for tilec's own code, as -fsanitize= takes them")
option(TILEC_ENABLE_FUZZER "Build the libFuzzer target (clang only)" OFF)

if(TILEC_SANITIZE)
  add_compile_options(-fsanitize=${TILEC_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_compile_options(-gline-tables-only)
  else()
    add_compile_options(-g1)
  endif()
  add_link_options(-fsanitize=${TILEC_SANITIZE})
endif()

if(TILEC_ENABLE_FUZZER)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TILEC_ENABLE_FUZZER needs clang (libFuzzer); "
                        "configure with -DCMAKE_CXX_COMPILER=clang++-22")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# Gives every executable of this project the sanitizers' run-time defaults
# (cmake/SanitizerOptions.cpp), so that the tools, the tests and the fuzzer
# behave the same from ctest, lit or a shell. Call once, after every
# add_subdirectory.
function(tilec_add_sanitizer_options)
  if(NOT TILEC_SANITIZE)
    return()
  endif()
  set(dirs "${PROJECT_SOURCE_DIR}")
  while(dirs)
    list(POP_FRONT dirs dir)
    get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
    list(APPEND dirs ${subdirs})
    get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target IN LISTS targets)
      get_target_property(type ${target} TYPE)
      if(type STREQUAL "EXECUTABLE")
        target_sources(${target} PRIVATE
          "${PROJECT_SOURCE_DIR}/cmake/SanitizerOptions.cpp")
      endif()
    endforeach()
  endwhile()
endfunction()
