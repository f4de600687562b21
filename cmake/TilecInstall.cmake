# What `cmake --install build --prefix P` installs (included by the top
# CMakeLists.txt when TILEC_INSTALL is on, after every target exists):
#
#   P/bin/tilec, tilec-opt, tilec-cubin-info
#   P/include/tilec/Runtime/*.h, P/include/tilec/Compiler/Compiler.h
#   P/lib/libtilec_runtime.a, libtilec_launch_metadata.a, libtilec_jit.a and
#     the compiler's archives (libTilecCompiler.a and those under it)
#   P/lib/cmake/tilec/tilecConfig.cmake, tilecConfigVersion.cmake,
#     tilecTargets*.cmake, tilecJitTargets*.cmake, TilecStaticLLVM.cmake,
#     TilecKernels.cmake (tilec_add_kernels, with the compiler)
#
# The package's targets: tilec::runtime (tilec_runtime: no MLIR, libcuda
# dlopen'ed; needs cuda.h, which the config finds), tilec::jit (tilec_jit
# and the compiler; the config finds MLIR 22 and links it and LLVM
# statically, as the build does) and the executables tilec::tilec,
# tilec::tilec-opt, tilec::tilec-cubin-info. The compiler's own archives are
# exported too (tilec::TilecCompiler, ...), as what tilec::jit links.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TILEC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/tilec" CACHE STRING
    "Where the CMake package goes, relative to the install prefix")
mark_as_advanced(TILEC_INSTALL_CMAKEDIR)

# Two export sets, so that the config reads the compiler's targets (which
# name MLIR's) only where it has found MLIR: tilecTargets (the runtime, the
# executables) and tilecJitTargets (tilec_jit and the compiler).
set_target_properties(tilec_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(tilec_launch_metadata PROPERTIES EXPORT_NAME launch_metadata)
set(tilec_runtime_targets tilec_runtime tilec_launch_metadata)
# Where the installed targets find the headers (the build's own directories
# are BUILD_INTERFACE only).
foreach(lib tilec_runtime tilec_launch_metadata)
  target_include_directories(${lib} PUBLIC
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

if(TILEC_ENABLE_COMPILER)
  list(APPEND tilec_runtime_targets tilec tilec-opt tilec-cubin-info)
  set_target_properties(tilec_jit PROPERTIES EXPORT_NAME jit)
  target_include_directories(tilec_jit PUBLIC
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set_target_properties(tilec_version PROPERTIES EXPORT_NAME version)
  # tilec_jit and every tilec library it links, found by walking the link
  # graph, so that a library added to the compiler later is installed
  # without a change here.
  set(pending tilec_jit)
  set(tilec_jit_targets)
  while(pending)
    list(POP_FRONT pending lib)
    if(lib IN_LIST tilec_jit_targets OR lib IN_LIST tilec_runtime_targets)
      continue()
    endif()
    list(APPEND tilec_jit_targets ${lib})
    foreach(prop LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
      get_target_property(deps ${lib} ${prop})
      foreach(dep IN LISTS deps)
        if(TARGET ${dep})
          get_target_property(dep_imported ${dep} IMPORTED)
          if(NOT dep_imported AND (dep MATCHES "^Tilec" OR dep MATCHES "^tilec_"))
            list(APPEND pending ${dep})
          endif()
        endif()
      endforeach()
    endforeach()
  endwhile()
endif()

install(TARGETS ${tilec_runtime_targets}
  EXPORT tilecTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT tilecTargets
  NAMESPACE tilec::
  DESTINATION ${TILEC_INSTALL_CMAKEDIR})
if(TILEC_ENABLE_COMPILER)
  install(TARGETS ${tilec_jit_targets}
    EXPORT tilecJitTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT tilecJitTargets
    NAMESPACE tilec::
    DESTINATION ${TILEC_INSTALL_CMAKEDIR})
endif()

# The public headers: the runtime's, and with the compiler Jit.h and the
# compiler API's, which Jit.h includes. Plain C++17: no MLIR or LLVM header
# is needed to use them.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/tilec/Runtime
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tilec
  FILES_MATCHING PATTERN "*.h"
  REGEX "/Jit\\.h$" EXCLUDE)
if(TILEC_ENABLE_COMPILER)
  install(FILES ${PROJECT_SOURCE_DIR}/runtime/include/tilec/Runtime/Jit.h
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tilec/Runtime)
  install(FILES ${PROJECT_SOURCE_DIR}/include/tilec/Compiler/Compiler.h
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tilec/Compiler)
endif()

# What the config records from this build: where cuda.h and MLIR were (hints
# only: the config looks again where it is used).
set(TILEC_PACKAGE_HAS_COMPILER ${TILEC_ENABLE_COMPILER})
set(TILEC_PACKAGE_CUDA_INCLUDE_HINT "")
foreach(dir IN LISTS TILEC_CUDA_INCLUDE_DIR)
  if(EXISTS "${dir}/cuda.h")
    set(TILEC_PACKAGE_CUDA_INCLUDE_HINT "${dir}")
    break()
  endif()
endforeach()
set(TILEC_PACKAGE_MLIR_DIR_HINT "")
if(TILEC_ENABLE_COMPILER)
  set(TILEC_PACKAGE_MLIR_DIR_HINT "${MLIR_DIR}")
endif()

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/tilecConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/tilecConfig.cmake
  INSTALL_DESTINATION ${TILEC_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/tilecConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/tilecConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/tilecConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/TilecStaticLLVM.cmake
  DESTINATION ${TILEC_INSTALL_CMAKEDIR})
if(TILEC_ENABLE_COMPILER)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/TilecKernels.cmake
    DESTINATION ${TILEC_INSTALL_CMAKEDIR})
endif()
