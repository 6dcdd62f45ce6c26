# What `cmake --install` (and the Debian package) puts on a system: the program, its man pages,
# shell completion, the udev rule and system user for device access, the systemd units, the
# docs and examples. Paths follow GNUInstallDirs; the system-integration directories come from
# udev's and systemd's pkg-config files when present and can be overridden (debian/rules does).
include(GNUInstallDirs)

function(ppsbench_system_dir var description pc_module pc_variable fallback)
  if(NOT DEFINED ${var})
    set(dir "")
    if(PKG_CONFIG_FOUND)
      pkg_get_variable(dir ${pc_module} ${pc_variable})
    endif()
    if(dir STREQUAL "")
      set(dir ${fallback})
    endif()
    set(${var} ${dir} CACHE PATH ${description})
  endif()
endfunction()

ppsbench_system_dir(PPSBENCH_SYSTEMDUNITDIR "systemd system units" systemd
  systemdsystemunitdir ${CMAKE_INSTALL_PREFIX}/lib/systemd/system)
ppsbench_system_dir(PPSBENCH_SYSUSERSDIR "sysusers.d files" systemd
  sysusersdir ${CMAKE_INSTALL_PREFIX}/lib/sysusers.d)
ppsbench_system_dir(PPSBENCH_UDEVRULESDIR "udev rules" udev
  udevdir ${CMAKE_INSTALL_PREFIX}/lib/udev)
if(NOT PPSBENCH_UDEVRULESDIR MATCHES "rules\\.d$")
  set(PPSBENCH_UDEVRULESDIR ${PPSBENCH_UDEVRULESDIR}/rules.d CACHE PATH "udev rules" FORCE)
endif()
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
set(PPSBENCH_DEFAULTDIR ${CMAKE_INSTALL_FULL_SYSCONFDIR}/default)
foreach(unit ppsbench-monitor.service ppsbench-nightly.service)
  configure_file(${dist}/systemd/${unit} ${CMAKE_CURRENT_BINARY_DIR}/systemd/${unit} @ONLY)
endforeach()
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/systemd/ppsbench-monitor.service
  ${CMAKE_CURRENT_BINARY_DIR}/systemd/ppsbench-nightly.service
  ${dist}/systemd/ppsbench-nightly.timer DESTINATION ${PPSBENCH_SYSTEMDUNITDIR})
install(FILES ${dist}/systemd/ppsbench.default DESTINATION ${CMAKE_INSTALL_FULL_SYSCONFDIR}/default
  RENAME ppsbench)

install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples USE_SOURCE_PERMISSIONS)
