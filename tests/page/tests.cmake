# SPDX-License-Identifier: GPL-2.0-or-later
# The --html page in headless Chromium and tidy (skips, exit 77, where they cannot run).
find_program(BASH_EXECUTABLE bash)
add_test(NAME page.browser
  COMMAND ${BASH_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/browser_test.sh $<TARGET_FILE:ppsbench>
    ${PROJECT_SOURCE_DIR})
set_tests_properties(page.browser PROPERTIES LABELS page SKIP_RETURN_CODE 77 TIMEOUT 300)
