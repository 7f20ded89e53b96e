# cmake -DOUTPUT=<file.inc> -DDOCS_DIR=<docs/checks> -P EmbedCheckDocs.cmake
#
# Writes each check's documentation page into a C++ table, so that the
# binary's SARIF rules carry the page (tool/CheckDocs.h) however it is
# installed. One row per page: {"<check>", R"warpcheckdoc(<text>)warpcheckdoc"}.
file(GLOB DOCS "${DOCS_DIR}/*.rst")
list(SORT DOCS)
set(content "// Generated from docs/checks/*.rst by cmake/EmbedCheckDocs.cmake.\n")
foreach(doc IN LISTS DOCS)
  get_filename_component(check "${doc}" NAME_WE)
  file(READ "${doc}" text)
  string(FIND "${text}" ")warpcheckdoc" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${doc} contains ')warpcheckdoc', which ends the embedded text")
  endif()
  string(APPEND content "{\"${check}\", R\"warpcheckdoc(${text})warpcheckdoc\"},\n")
endforeach()
# Rewritten only when it changes: nothing recompiles for an untouched page.
file(WRITE "${OUTPUT}.new" "${content}")
file(COPY_FILE "${OUTPUT}.new" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.new")
