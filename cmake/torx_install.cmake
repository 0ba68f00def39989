# SPDX-License-Identifier: Apache-2.0
# `cmake --install build --prefix DIR` for the library (docs/api.md, "Installing"):
#   DIR/include/torx/*.hpp                     the public headers (no internal header is installed)
#   DIR/lib/libtorx.a, libtorx_systemc.a       torx::torx, torx::systemc (static, position independent)
#   DIR/lib/libtorx_*.a                        the internal layers they link (torx::torx_core, ...)
#   DIR/lib/libtorx_rtl.a                      torx::rtl, with hw/ built (not position independent)
#   DIR/lib/libtorx_rtl_runtime.a              the Verilator runtime, linked whole and exported by a
#                                              program using model "rtl" (torxConfig.cmake does it)
#   DIR/share/torx/rtl/                        the kit on-demand models are built from (hw/)
#   DIR/lib/cmake/torx/torxConfig.cmake        find_package(torx [VERSION]) from any prefix
#   DIR/lib/cmake/torx/torxConfigVersion.cmake SameMajorVersion
#   DIR/lib/pkgconfig/torx.pc                  pkg-config --cflags --libs torx
# Kept out of the top-level CMakeLists.txt so that other install rules (hw/) do not collide with it.
include(CMakePackageConfigHelpers)

set(_torx_libs torx_api torx_api_systemc torx_app torx_models torx_model_core torx_algorithms torx_core)
set(TORX_PC_RTL "")
set(TORX_PC_RTL_DEPS "")
# With hw/ built, the Verilated routers (and the Verilator runtime compiled into them) are torx::rtl,
# linked by torx::torx for model "rtl". Their include directories in the source and build trees are
# for building only (the installed headers need none of them).
if(TARGET torx_rtl)
  foreach(_prop INTERFACE_INCLUDE_DIRECTORIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES)
    get_target_property(_dirs torx_rtl ${_prop})
    if(_dirs)
      set(_kept "")
      foreach(_d IN LISTS _dirs)
        string(FIND "${_d}" "${PROJECT_SOURCE_DIR}" _in_src)
        string(FIND "${_d}" "${PROJECT_BINARY_DIR}" _in_bin)
        if(_in_src EQUAL 0 OR _in_bin EQUAL 0)
          list(APPEND _kept "$<BUILD_INTERFACE:${_d}>")
        else()
          list(APPEND _kept "${_d}")
        endif()
      endforeach()
      set_target_properties(torx_rtl PROPERTIES ${_prop} "${_kept}")
    endif()
  endforeach()
  # (Not recompiled with -fPIC: the Verilated code is the bulk of a build, and CI's share of it stays
  # as it was; libtorx_rtl.a links into executables, not into shared objects.)
  set_target_properties(torx_rtl PROPERTIES EXPORT_NAME rtl)
  list(APPEND _torx_libs torx_rtl)
  set(TORX_PC_RTL " -ltorx_rtl")
  # On-demand models (docs/rtl.md) are shared objects that use the Verilator runtime of the program
  # loading them: the runtime linked whole and exported; its FST writer and threads need zlib, pthread.
  set(TORX_PC_RTL_DEPS " -Wl,--export-dynamic -Wl,--whole-archive -ltorx_rtl_runtime -Wl,--no-whole-archive -lz -pthread -ldl")
  install(TARGETS torx_rtl_runtime ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/torx_rtl_kit_hint.cpp DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/torx)
  set(TORX_HAVE_RTL 1)
else()
  set(TORX_HAVE_RTL 0)
endif()
# With TORX_WITH_MPI the application layer links MPI (torxConfig.cmake finds it; torx.pc names its
# libraries).
set(TORX_PC_MPI "")
if(TORX_WITH_MPI)
  set(TORX_HAVE_MPI 1)
  foreach(_l IN LISTS MPI_CXX_LIBRARIES)
    string(APPEND TORX_PC_MPI " ${_l}")
  endforeach()
else()
  set(TORX_HAVE_MPI 0)
endif()
install(TARGETS ${_torx_libs} EXPORT torxTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/torx/torx.hpp ${PROJECT_SOURCE_DIR}/include/torx/error.hpp
              ${PROJECT_SOURCE_DIR}/include/torx/network.hpp ${PROJECT_SOURCE_DIR}/include/torx/systemc.hpp
              ${PROJECT_BINARY_DIR}/include/torx/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/torx)
install(EXPORT torxTargets NAMESPACE torx:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/torx)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/torxConfig.cmake.in ${PROJECT_BINARY_DIR}/torxConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/torx)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/torxConfigVersion.cmake VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/torxConfig.cmake ${PROJECT_BINARY_DIR}/torxConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/torx)
# pkg-config: the libraries in link order, then their dependencies (${pcfiledir}: relocatable).
configure_file(${PROJECT_SOURCE_DIR}/cmake/torx.pc.in ${PROJECT_BINARY_DIR}/torx.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/torx.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
