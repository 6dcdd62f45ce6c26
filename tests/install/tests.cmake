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
# The real prometheus-node-exporter scraping `run --prometheus` during a run (skips without it).
add_test(NAME install.node_exporter
  COMMAND ${BASH_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/node_exporter_test.sh $<TARGET_FILE:ppsbench>)
set_tests_properties(install.node_exporter PROPERTIES LABELS install SKIP_RETURN_CODE 77
  TIMEOUT 120)
find_program(ZSH_EXECUTABLE zsh)
if(ZSH_EXECUTABLE)
  add_test(NAME install.zsh_completion
    COMMAND ${ZSH_EXECUTABLE} -f ${CMAKE_CURRENT_LIST_DIR}/zsh_completion_test.zsh
      $<TARGET_FILE:ppsbench> ${PROJECT_SOURCE_DIR}/dist/completion/ppsbench.bash)
  set_tests_properties(install.zsh_completion PROPERTIES LABELS install)
endif()
add_test(NAME install.grafana_dashboard
  COMMAND ${BASH_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/grafana_dashboard_test.sh
    $<TARGET_FILE:ppsbench> ${PROJECT_SOURCE_DIR})
set_tests_properties(install.grafana_dashboard PROPERTIES LABELS install)
