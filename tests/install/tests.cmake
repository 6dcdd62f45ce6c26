# SPDX-License-Identifier: GPL-2.0-or-later
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
# The Prometheus alerting rules: promtool check rules and test rules (skips without promtool).
add_test(NAME install.prometheus_rules
  COMMAND ${BASH_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/prometheus_rules_test.sh
    ${PROJECT_SOURCE_DIR}/dist/prometheus)
set_tests_properties(install.prometheus_rules PROPERTIES LABELS install SKIP_RETURN_CODE 77
  TIMEOUT 300)
# Every installed file under --prefix DIR, and under DESTDIR (needs the whole build: man pages).
add_test(NAME install.prefix
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/install_prefix_test.sh ${CMAKE_COMMAND}
    ${PROJECT_BINARY_DIR})
set_tests_properties(install.prefix PROPERTIES LABELS install)
# The udev rule on plain Debian and beside Raspberry Pi OS's 99-com.rules (a fixture copy).
find_program(PYTHON3_EXECUTABLE python3)
if(PYTHON3_EXECUTABLE)
  add_test(NAME install.udev_rules
    COMMAND ${PYTHON3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/udev_rules_test.py
      ${PROJECT_SOURCE_DIR}/dist/udev/60-ppsbench.rules
      ${CMAKE_CURRENT_LIST_DIR}/fixtures/99-com.rules)
  set_tests_properties(install.udev_rules PROPERTIES LABELS install)
endif()
