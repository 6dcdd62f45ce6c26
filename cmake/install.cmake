# SPDX-License-Identifier: GPL-2.0-or-later
# What `cmake --install` (and the Debian package) puts on a system: the program, its man pages,
# shell completion, the udev rule and system user for device access, the systemd units, the
# docs and examples. Paths follow GNUInstallDirs. The system-integration directories are
# relative to the install prefix by default, so `cmake --install build --prefix DIR` and
# `DESTDIR=DIR cmake --install build` put every file under DIR and never touch the running
# system; a distribution passes its own absolute paths (debian/rules does).
include(GNUInstallDirs)

# Build trees configured before these defaults held absolute paths read from udev's and
# systemd's pkg-config files (outside any --prefix). Such a cache is recognised by the bash
# completion entry it also has, without PPSBENCH_INSTALL_LAYOUT; its old values are dropped.
if(DEFINED CACHE{PPSBENCH_BASHCOMPLETIONDIR} AND NOT DEFINED CACHE{PPSBENCH_INSTALL_LAYOUT})
  foreach(var PPSBENCH_SYSTEMDUNITDIR PPSBENCH_SYSUSERSDIR PPSBENCH_UDEVRULESDIR)
    if(DEFINED CACHE{${var}})
      message(STATUS "ppsbench: ${var} now defaults relative to the prefix (was ${${var}})")
      unset(${var} CACHE)
    endif()
  endforeach()
endif()
set(PPSBENCH_INSTALL_LAYOUT 2 CACHE INTERNAL "system directories relative to the prefix")

set(PPSBENCH_SYSTEMDUNITDIR lib/systemd/system CACHE STRING
  "systemd system units (relative to the prefix, or absolute)")
set(PPSBENCH_SYSUSERSDIR lib/sysusers.d CACHE STRING
  "sysusers.d files (relative to the prefix, or absolute)")
set(PPSBENCH_UDEVRULESDIR lib/udev/rules.d CACHE STRING
  "udev rules (relative to the prefix, or absolute)")
set(PPSBENCH_ENVIRONMENTDIR etc/default CACHE STRING
  "the services' EnvironmentFile, ppsbench (relative to the prefix, or absolute)")
set(PPSBENCH_BASHCOMPLETIONDIR ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  CACHE PATH "bash completion scripts")
set(PPSBENCH_ZSHCOMPLETIONDIR ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions
  CACHE PATH "zsh completion functions")

install(TARGETS ppsbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

include(${CMAKE_CURRENT_LIST_DIR}/manpages.cmake)

set(dist ${PROJECT_SOURCE_DIR}/dist)
install(FILES ${dist}/completion/ppsbench.bash DESTINATION ${PPSBENCH_BASHCOMPLETIONDIR}
  RENAME ppsbench)
# zsh runs the bash completion through bashcompinit; it needs to know where that file is.
if(IS_ABSOLUTE ${PPSBENCH_BASHCOMPLETIONDIR})
  set(PPSBENCH_BASH_COMPLETION_FILE ${PPSBENCH_BASHCOMPLETIONDIR}/ppsbench)
else()
  set(PPSBENCH_BASH_COMPLETION_FILE ${CMAKE_INSTALL_PREFIX}/${PPSBENCH_BASHCOMPLETIONDIR}/ppsbench)
endif()
configure_file(${dist}/completion/_ppsbench.in ${CMAKE_CURRENT_BINARY_DIR}/completion/_ppsbench
  @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/completion/_ppsbench
  DESTINATION ${PPSBENCH_ZSHCOMPLETIONDIR})
install(FILES ${dist}/udev/60-ppsbench.rules DESTINATION ${PPSBENCH_UDEVRULESDIR})
install(FILES ${dist}/sysusers/ppsbench.conf DESTINATION ${PPSBENCH_SYSUSERSDIR})
# The services start the installed program with the installed settings file: a --prefix
# install's units name its own ppsbench, not a fixed /usr/bin one.
set(PPSBENCH_BINDIR ${CMAKE_INSTALL_FULL_BINDIR})
if(IS_ABSOLUTE "${PPSBENCH_ENVIRONMENTDIR}")
  set(PPSBENCH_DEFAULTDIR ${PPSBENCH_ENVIRONMENTDIR})
else()
  set(PPSBENCH_DEFAULTDIR ${CMAKE_INSTALL_PREFIX}/${PPSBENCH_ENVIRONMENTDIR})
endif()
foreach(unit ppsbench-monitor.service ppsbench-nightly.service)
  configure_file(${dist}/systemd/${unit} ${CMAKE_CURRENT_BINARY_DIR}/systemd/${unit} @ONLY)
endforeach()
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/systemd/ppsbench-monitor.service
  ${CMAKE_CURRENT_BINARY_DIR}/systemd/ppsbench-nightly.service
  ${dist}/systemd/ppsbench-nightly.timer DESTINATION ${PPSBENCH_SYSTEMDUNITDIR})
install(FILES ${dist}/systemd/ppsbench.default DESTINATION ${PPSBENCH_ENVIRONMENTDIR}
  RENAME ppsbench)

# Alerting rules for the monitor's metrics, for a Prometheus server's rule_files.
install(FILES ${dist}/prometheus/ppsbench.rules.yml
  DESTINATION ${CMAKE_INSTALL_DATADIR}/ppsbench/prometheus)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples USE_SOURCE_PERMISSIONS)
