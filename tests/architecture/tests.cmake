# SPDX-License-Identifier: GPL-2.0-or-later
# The architecture rules (./dev.sh check): the tree holds to docs/modules.txt and the size rule,
# and the checker fails on a planted violation of each kind.
find_program(PYTHON3_EXECUTABLE python3)
find_program(CTAGS_EXECUTABLE ctags)
if(PYTHON3_EXECUTABLE AND CTAGS_EXECUTABLE)
  add_test(NAME architecture.planted_violations
    COMMAND ${BASH_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/planted_test.sh ${PROJECT_SOURCE_DIR})
  set_tests_properties(architecture.planted_violations PROPERTIES LABELS architecture)
endif()
