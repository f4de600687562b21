# tilec_add_kernels: tile kernels compiled at build time into a target, with
# a typed C++ function per kernel.
#
#   tilec_add_kernels(<target> SOURCES a.mlir [b.mlir ...]
#                     ARCHS sm_80 sm_90a [...]
#                     [TILEC_OPTIONS <tilec flags>...])
#
# For every source and arch, the build runs `tilec SOURCE --arch=ARCH
# TILEC_OPTIONS -o ...` (re-run when the source or tilec changes), then
# `tilec-cubin-info --emit-wrappers`, which writes
#
#   <binary dir>/tilec_kernels/<target>/include/tilec_kernels/<name>.h
#   <binary dir>/tilec_kernels/<target>/<name>.cpp
#
# where <name> is the source's file name without .mlir made a C++ identifier
# (`string(MAKE_C_IDENTIFIER)`: my-ops.mlir -> my_ops). The .cpp, holding
# every arch's cubin, is added to <target>; the header, included as
# "tilec_kernels/<name>.h", declares in namespace <name> one function per
# entry kernel:
#
#   void saxpy(const tilec::rt::Stream &stream, float alpha,
#              const tilec::rt::TypedView<float> &x, ...);
#
# which loads the cubin for the stream's device on its first launch there
# (once per device, thread-safe) and launches the kernel on `stream`. <target>
# gets the include directory and links tilec::runtime (both PUBLIC). Call it
# in the directory that created <target>. A source every arch cannot compile
# (too much shared memory for sm_80, say) fails the build with tilec's error.
#
# Provided by find_package(tilec) (the package's tilecConfig.cmake) and by a
# tilec build (its top-level CMakeLists.txt, after the tools); it needs the
# executables tilec::tilec and tilec::tilec-cubin-info.

function(tilec_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;ARCHS;TILEC_OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "tilec_add_kernels: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tilec_add_kernels: no target named '${target}'")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "tilec_add_kernels(${target}): no SOURCES")
  endif()
  if(NOT arg_ARCHS)
    message(FATAL_ERROR
      "tilec_add_kernels(${target}): no ARCHS (sm_80, sm_90a, ...)")
  endif()
  foreach(tool tilec tilec-cubin-info)
    if(NOT TARGET tilec::${tool})
      message(FATAL_ERROR
        "tilec_add_kernels(${target}): tilec::${tool} does not exist (a "
        "tilec package or build without the compiler?)")
    endif()
  endforeach()
  # The real targets behind the build tree's aliases: custom commands name
  # them, so that they are built first and the commands re-run when they
  # change.
  set(tools)
  foreach(tool tilec tilec-cubin-info)
    get_target_property(real tilec::${tool} ALIASED_TARGET)
    if(NOT real)
      set(real tilec::${tool})
    endif()
    list(APPEND tools ${real})
  endforeach()
  list(GET tools 0 tilec_exe)
  list(GET tools 1 info_exe)
  set(seen_archs)
  foreach(arch IN LISTS arg_ARCHS)
    if(NOT arch MATCHES "^sm_[1-9][0-9][0-9]?[af]?$")
      message(FATAL_ERROR
        "tilec_add_kernels(${target}): '${arch}' is not an arch (sm_80, "
        "sm_90a, ...)")
    endif()
    if(arch IN_LIST seen_archs)
      message(FATAL_ERROR "tilec_add_kernels(${target}): ${arch} given twice")
    endif()
    list(APPEND seen_archs ${arch})
  endforeach()

  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/tilec_kernels/${target})
  set(include_dir ${out_dir}/include)
  get_property(names TARGET ${target} PROPERTY _TILEC_KERNEL_NAMES)
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(src_path "${src}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${src_path}" NAME_WE)
    string(MAKE_C_IDENTIFIER "${stem}" name)
    if(name IN_LIST names)
      message(FATAL_ERROR
        "tilec_add_kernels(${target}): two sources make the C++ name "
        "'${name}' (${src})")
    endif()
    list(APPEND names ${name})

    set(cubin_args)
    set(cubins)
    foreach(arch IN LISTS arg_ARCHS)
      set(cubin ${out_dir}/${name}.${arch}.cubin)
      add_custom_command(
        OUTPUT ${cubin}
        COMMAND ${tilec_exe} ${src_path} --arch=${arch} ${arg_TILEC_OPTIONS}
                -o ${cubin}
        DEPENDS ${src_path} ${tilec_exe}
        COMMENT "tilec ${stem}.mlir for ${arch}"
        VERBATIM)
      list(APPEND cubins ${cubin})
      list(APPEND cubin_args ${arch}=${cubin})
    endforeach()

    set(header ${include_dir}/tilec_kernels/${name}.h)
    set(source ${out_dir}/${name}.cpp)
    add_custom_command(
      OUTPUT ${header} ${source}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${include_dir}/tilec_kernels
      COMMAND ${info_exe} --emit-wrappers --name ${name}
              --header ${header} --source ${source}
              --header-include tilec_kernels/${name}.h
              --mlir ${src_path} ${cubin_args}
      DEPENDS ${cubins} ${src_path} ${info_exe}
      COMMENT "C++ wrappers for the kernels of ${stem}.mlir"
      VERBATIM)
    target_sources(${target} PRIVATE ${source} ${header})
  endforeach()
  set_property(TARGET ${target} PROPERTY _TILEC_KERNEL_NAMES ${names})

  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${include_dir}>)
  target_link_libraries(${target} PUBLIC tilec::runtime)
endfunction()
