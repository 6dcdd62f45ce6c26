# Tests of what `cmake --install` ships, against the built program: the man pages name every
# option of --help, and the bash completion offers the program's commands, options and values.
if(TARGET man_pages)
  add_test(NAME install.man_pages
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/man_pages_test.sh $<TARGET_FILE:ppsbench>
      ${PROJECT_BINARY_DIR}/man)
  set_tests_properties(install.man_pages PROPERTIES LABELS install)
endif()
find_program(BASH_EXECUTABLE bash)
add_test(NAME install.bash_completion
  COMMAND ${BASH_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/completion_test.sh $<TARGET_FILE:ppsbench>
    ${PROJECT_SOURCE_DIR}/dist/completion/ppsbench.bash)
set_tests_properties(install.bash_completion PROPERTIES LABELS install)
