// SPDX-License-Identifier: Apache-2.0
// Compiled into a program built with find_package(torx) when the package has model "rtl"
// (torxConfig.cmake): tells the on-demand RTL builder (hw/rtl_cache.cpp, rtl_kit_dir) where the
// installed kit is, since the program does not live in the prefix's bin directory. TORX_RTL_KIT in
// the environment still takes precedence.
#ifndef TORX_RTL_KIT_HINT
#error "TORX_RTL_KIT_HINT is set by torxConfig.cmake"
#endif
extern "C" const char* torx_rtl_kit_hint() { return TORX_RTL_KIT_HINT; }
