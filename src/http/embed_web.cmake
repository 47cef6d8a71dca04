# embed_web.cmake - turns the files of web/ into a C table at build time,
# so `flierd serve` carries its dashboard and needs no files at run time
# (static.c serves it; --web DIR serves a folder instead).
#   cmake -DWEB_DIR=<dir> -DOUT=<file.c> -P embed_web.cmake
# One entry per file, in name order: its URL path ("/pages/games.js"),
# its bytes, and their SHA-256 in hex (the ETag, computed here once rather
# than per request). A path segment starting with a dot (a hidden file, an
# editor's swap file) is left out, as the server would refuse to serve it
# anyway. Names are kept to letters, digits and ._- so that each is a C
# string literal and a URL as it is; anything else fails the build, and so
# does a web/ without index.html (the router's fallback page).
file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${WEB_DIR}"
     "${WEB_DIR}/*")
list(SORT files)
set(body "")
set(table "")
set(n 0)
set(have_index FALSE)
foreach(rel IN LISTS files)
  if(rel MATCHES "(^|/)\\.")
    continue()
  endif()
  if(NOT rel MATCHES "^[A-Za-z0-9_][A-Za-z0-9._/-]*$")
    message(FATAL_ERROR "web/${rel}: use only letters, digits and ._- in "
                        "the names of the dashboard's files")
  endif()
  if(rel STREQUAL "index.html")
    set(have_index TRUE)
  endif()
  file(READ "${WEB_DIR}/${rel}" hex HEX)
  file(SHA256 "${WEB_DIR}/${rel}" sha)
  string(LENGTH "${hex}" hex_len)
  math(EXPR len "${hex_len} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)"
         "\\1\n    " bytes "${bytes}")
  # a NUL after the bytes: an empty file is still a valid array
  string(APPEND body "/* ${rel} */\nstatic const unsigned char f${n}[] = {\n    ${bytes}0x00};\n")
  string(APPEND table "    { \"/${rel}\", f${n}, ${len}, \"${sha}\" },\n")
  math(EXPR n "${n} + 1")
endforeach()
if(NOT have_index)
  message(FATAL_ERROR "${WEB_DIR}/index.html is missing: the dashboard "
                      "needs it (it is every page of its router)")
endif()
set(text "/* Generated from the files of web/ by src/http/embed_web.cmake. */\n\
#include \"http/http_int.h\"\n\n${body}\n\
const struct web_asset web_assets[] = {\n${table}};\n\
const size_t web_n_assets = ${n};\n")
file(WRITE "${OUT}" "${text}")
