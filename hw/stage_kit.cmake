# SPDX-License-Identifier: Apache-2.0
# Stages the RTL kit (docs/rtl.md, "Models on demand") into KIT: what an on-demand model is built
# from, and all of it, so that an installed torx needs nothing from the source tree:
#   KIT/sv/                  the SV sources and the lint configuration (hw/*.sv, hw/*.vlt), and the
#                            properties the units include (hw/props/*.svh -> KIT/sv/props/)
#   KIT/mutants/             the hand-written mutants' patches of hw/ (testbenches/rtl/mutants/*.patch),
#                            applied to a copy of KIT/sv when a mutant's model is built
#   KIT/rtl_factory.cpp.in   the factory template (C entry points)
#   KIT/include/             the headers the factory includes, found by the compiler itself (-MM on
#                            the template for each kind of model), under their include paths
# Run by hw/CMakeLists.txt at build time (cmake -P) with SRC (the source tree), KIT, CXX (the
# compiler) and VROOT (Verilator's root).
foreach(v SRC KIT CXX VROOT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "stage_kit.cmake: ${v} not set")
  endif()
endforeach()

file(REMOVE_RECURSE ${KIT}.tmp)
file(MAKE_DIRECTORY ${KIT}.tmp/sv ${KIT}.tmp/include)
file(GLOB sv ${SRC}/hw/*.sv ${SRC}/hw/*.vlt)
file(COPY ${sv} DESTINATION ${KIT}.tmp/sv)
# The properties each unit includes (`include "props/...", docs/verification.md).
file(GLOB props ${SRC}/hw/props/*.svh)
if(props)
  file(COPY ${props} DESTINATION ${KIT}.tmp/sv/props)
endif()
file(GLOB mutants ${SRC}/testbenches/rtl/mutants/*.patch)
if(mutants)
  file(COPY ${mutants} DESTINATION ${KIT}.tmp/mutants)
endif()
file(COPY ${SRC}/hw/rtl_factory.cpp.in DESTINATION ${KIT}.tmp)

# The factory's include closure: the template with a stand-in for Verilator's model header (-MG: a
# header that does not exist yet is named, not an error).
file(READ ${SRC}/hw/rtl_factory.cpp.in factory)
string(REPLACE "@PREFIX@" "Vtorx_stage_kit_model" factory "${factory}")
file(WRITE ${KIT}.tmp/probe.cpp "${factory}")
set(headers "")
foreach(kind 1 2 3 4)
  execute_process(
    COMMAND ${CXX} -std=c++17 -MM -MG -DTORX_RTL_KIND=${kind} -I${SRC} -I${SRC}/sw
            -isystem ${VROOT}/include -isystem ${VROOT}/include/vltstd ${KIT}.tmp/probe.cpp
    OUTPUT_VARIABLE deps RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "stage_kit.cmake: ${CXX} -MM on the factory template failed:\n${err}")
  endif()
  string(REPLACE "\\\n" " " deps "${deps}")
  string(REGEX REPLACE "^[^:]*:" "" deps "${deps}")
  separate_arguments(deps UNIX_COMMAND "${deps}")
  list(APPEND headers ${deps})
endforeach()
list(REMOVE_DUPLICATES headers)
foreach(h ${headers})
  get_filename_component(h "${h}" ABSOLUTE)
  file(RELATIVE_PATH rel ${SRC} ${h})
  if(rel MATCHES "^\\.\\." OR NOT rel MATCHES "\\.hpp$")
    continue()  # the probe itself, Verilator's and the system's headers
  endif()
  string(REGEX REPLACE "^sw/" "" rel "${rel}")  # sw/core/x.hpp is included as core/x.hpp
  get_filename_component(dir "${rel}" DIRECTORY)
  file(COPY ${h} DESTINATION ${KIT}.tmp/include/${dir})
endforeach()
file(REMOVE ${KIT}.tmp/probe.cpp)

file(REMOVE_RECURSE ${KIT})
file(RENAME ${KIT}.tmp ${KIT})
# file(COPY) keeps the sources' times: the output the build rule names gets the staging time, so the
# rule runs again only when an input changes (not on every build, under a model being built).
file(TOUCH ${KIT}/rtl_factory.cpp.in)
