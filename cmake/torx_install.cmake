# SPDX-License-Identifier: Apache-2.0
# `cmake --install build --prefix DIR` for the library (docs/api.md, "Installing"):
#   DIR/include/torx/*.hpp                     the public headers (no internal header is installed)
#   DIR/lib/libtorx.a, libtorx_systemc.a       torx::torx, torx::systemc (static, position independent)
#   DIR/lib/libtorx_*.a                        the internal layers they link (torx::torx_core, ...)
#   DIR/lib/cmake/torx/torxConfig.cmake        find_package(torx [VERSION]) from any prefix
#   DIR/lib/cmake/torx/torxConfigVersion.cmake SameMajorVersion
#   DIR/lib/pkgconfig/torx.pc                  pkg-config --cflags --libs torx
# Kept out of the top-level CMakeLists.txt so that other install rules (hw/) do not collide with it.
include(CMakePackageConfigHelpers)

set(_torx_libs torx_api torx_api_systemc torx_app torx_models torx_model_core torx_algorithms torx_core)
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
