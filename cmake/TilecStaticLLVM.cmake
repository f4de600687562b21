# tilec's static link of MLIR and LLVM, shared by the build
# (cmake/TilecMLIR.cmake) and the installed package (tilecConfig.cmake, which
# installs this file next to itself).
#
# Debian's CMake exports make the MLIR archives (lib/libMLIR*.a) depend on the
# LLVM dylib (LLVM_LINK_LLVM_DYLIB=ON). tilec_static_llvm() rewrites that edge
# of every MLIR imported target to a link group of the static LLVM archives
# (lib/libLLVM*.a), so that programs linking tilec's compiler depend only on
# libc, libstdc++, zlib and zstd and run on machines without LLVM or MLIR.
#
#   tilec_static_llvm(<name> [IMPORTED])
#
# defines the INTERFACE target <name> holding the link group (an IMPORTED
# GLOBAL one with IMPORTED, for the package's namespaced name), then rewrites
# the MLIR targets, whichever directory found MLIR. Call it after
# find_package(MLIR). Calling it again is harmless. It changes the MLIR
# targets for the whole project: a project that also links MLIR itself gets
# the same static link.
#
# The group also carries the link options of tilec's own static links: lld
# where it is installed (several times faster than ld.bfd), --gc-sections
# (drops the unused functions of the archives: a quarter of a JIT program)
# and --as-needed, as Debian's g++ passes by default and clang does not (the
# LLVM exports name libz3, which nothing tilec uses calls).

function(tilec_static_llvm name)
  if(NOT LLVM_LIBRARY_DIR)
    message(FATAL_ERROR "tilec_static_llvm: call find_package(MLIR) first")
  endif()

  find_program(TILEC_LLD NAMES ld.lld-22 ld.lld)
  if(NOT TARGET ${name})
    file(GLOB archives "${LLVM_LIBRARY_DIR}/libLLVM*.a")
    list(FILTER archives EXCLUDE REGEX "libLLVM(TableGen|Demangle)?\\.so")
    if(NOT archives)
      message(FATAL_ERROR "tilec: no static LLVM archives (libLLVM*.a) in "
        "${LLVM_LIBRARY_DIR}; install the LLVM development package (llvm-22-dev)")
    endif()
    if(ARGV1 STREQUAL "IMPORTED")
      add_library(${name} INTERFACE IMPORTED GLOBAL)
    else()
      add_library(${name} INTERFACE)
    endif()
    target_link_libraries(${name} INTERFACE
      "-Wl,--start-group" ${archives} "-Wl,--end-group"
      z zstd ${CMAKE_DL_LIBS} pthread)
    if(TILEC_LLD)
      target_link_options(${name} INTERFACE -fuse-ld=lld)
    endif()
    target_link_options(${name} INTERFACE -Wl,--gc-sections -Wl,--as-needed)
  endif()

  # The MLIR targets: those MLIRConfig.cmake names (found in this directory
  # or above) and those imported in this directory.
  get_property(imported DIRECTORY PROPERTY IMPORTED_TARGETS)
  set(targets ${MLIR_EXPORTED_TARGETS} ${imported})
  list(REMOVE_DUPLICATES targets)
  foreach(t IN LISTS targets)
    if(NOT (t MATCHES "^MLIR" OR t MATCHES "^obj\\.MLIR") OR NOT TARGET ${t})
      continue()
    endif()
    get_target_property(is_imported ${t} IMPORTED)
    if(NOT is_imported)
      continue()
    endif()
    get_target_property(libs ${t} INTERFACE_LINK_LIBRARIES)
    if(libs)
      list(TRANSFORM libs REPLACE "^LLVM$" "${name}")
      list(REMOVE_ITEM libs MLIR)
      set_target_properties(${t} PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")
    endif()
  endforeach()
endfunction()
