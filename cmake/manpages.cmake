# SPDX-License-Identifier: GPL-2.0-or-later
# Man pages: ppsbench(1) and ppsbench-COMMAND(1), made at build time by help2man from the built
# program's --help plus the hand-written sections in dist/man/NAME.h2m (examples, files, see
# also). The options in a page therefore come from --help itself; tests/install checks that
# every command has a page and every option of its --help is in it. help2man-page.sh runs
# help2man with --locale=C.UTF-8: its default is C whatever the build's locale, and in C it
# turns σ, µ, − and → into "??" (the test fails on any "??").
find_program(HELP2MAN_EXECUTABLE help2man)
if(HELP2MAN_EXECUTABLE)
  option(PPSBENCH_MAN_PAGES "Generate man pages with help2man" ON)
else()
  option(PPSBENCH_MAN_PAGES "Generate man pages with help2man" OFF)
endif()
if(NOT PPSBENCH_MAN_PAGES)
  message(STATUS "ppsbench: no man pages (help2man not found; Debian: apt install help2man)")
  return()
endif()
if(NOT HELP2MAN_EXECUTABLE)
  message(FATAL_ERROR "PPSBENCH_MAN_PAGES is ON but help2man is missing (Debian: apt install help2man)")
endif()

file(GLOB PPSBENCH_MAN_INCLUDES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/dist/man/*.h2m)
set(PPSBENCH_MAN_PAGE_FILES)
foreach(include ${PPSBENCH_MAN_INCLUDES})
  get_filename_component(page ${include} NAME_WE)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/man/${page}.1)
  add_custom_command(OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/man
    COMMAND ${CMAKE_COMMAND} -E env HELP2MAN=${HELP2MAN_EXECUTABLE}
      sh ${PROJECT_SOURCE_DIR}/dist/man/help2man-page.sh
      ${PPSBENCH_RUN} ${page} ${include} ${output} ${PROJECT_VERSION}
    DEPENDS ppsbench ${include} ${PROJECT_SOURCE_DIR}/dist/man/help2man-page.sh
    COMMENT "help2man: ${page}(1)" VERBATIM)
  list(APPEND PPSBENCH_MAN_PAGE_FILES ${output})
endforeach()
add_custom_target(man_pages ALL DEPENDS ${PPSBENCH_MAN_PAGE_FILES})
install(FILES ${PPSBENCH_MAN_PAGE_FILES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
