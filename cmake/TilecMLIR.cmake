# Finds MLIR 22 and sets up tilec's linking model.
#
# Linking model: every tilec executable links MLIR and LLVM *statically* from
# the component archives that Debian ships (lib/libMLIR*.a, lib/libLLVM*.a).
# Debian's CMake exports make the MLIR archives depend on the LLVM dylib
# (LLVM_LINK_LLVM_DYLIB=ON); we rewrite that edge to a link group of the LLVM
# archives. The result depends only on libc, libstdc++, zlib and zstd, so a
# JIT-capable program built here runs unchanged on the GPU machine, which has
# no LLVM or MLIR, and tilec starts in a few milliseconds.

find_package(MLIR 22.1 REQUIRED CONFIG)
message(STATUS "Using MLIRConfig.cmake in: ${MLIR_DIR}")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
include_directories(
  ${PROJECT_SOURCE_DIR}/dialect/include ${PROJECT_BINARY_DIR}/dialect/include
  ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include
  ${PROJECT_SOURCE_DIR}/runtime/include)
add_definitions(${LLVM_DEFINITIONS})

set(TILEC_TABLEGEN_OUTPUT_DIR ${PROJECT_BINARY_DIR}/include)
set(MLIR_BINARY_DIR ${PROJECT_BINARY_DIR})
# `ninja mlir-doc` (a target AddMLIR defines) writes the ODS-generated docs
# under build/docs/.

# --- static LLVM -----------------------------------------------------------
# The rewrite lives in its own module, which the installed package
# (tilecConfig.cmake) applies the same way to its users' MLIR targets.
include(${CMAKE_CURRENT_LIST_DIR}/TilecStaticLLVM.cmake)
tilec_static_llvm(tilec_llvm_static)

# lld links the large static executables several times faster than ld.bfd.
# --as-needed as Debian's g++ passes it by default and clang does not: the
# LLVM exports name libz3, which nothing tilec uses calls. (tilec_llvm_static
# carries the same options for whatever links MLIR; these apply to every
# tilec target.)
if(TILEC_LLD)
  add_link_options(-fuse-ld=lld -Wl,--gc-sections -Wl,--as-needed)
else()
  add_link_options(-Wl,--gc-sections -Wl,--as-needed)
endif()

# Compiler code follows LLVM's conventions: RTTI as LLVM was built, no C++
# exceptions.
set(TILEC_COMPILER_FLAGS -fno-exceptions -ffunction-sections -fdata-sections
    -Wall -Wno-unused-parameter)

# add_tilec_library(name SOURCES... [DEPENDS tablegen-targets...]
#                   [LINK_LIBS libs...])
function(add_tilec_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  target_compile_options(${name} PRIVATE ${TILEC_COMPILER_FLAGS})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS})
endfunction()

# add_tilec_tool(name SOURCES... [LINK_LIBS libs...])
function(add_tilec_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_compile_options(${name} PRIVATE ${TILEC_COMPILER_FLAGS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
endfunction()
