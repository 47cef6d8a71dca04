# embed_schema.cmake - turns a folder of NNN_*.sql migrations into a C
# array at build time, so the daemon carries its migrations and needs no
# files at run time.
#   cmake -DSCHEMA_DIR=<dir> -DOUT=<file.c> -DPREFIX=<sq|pg>
#         -DHEADER=<store/sqlite_int.h|store/pg/pg_int.h> -P embed_schema.cmake
# gives PREFIX_migrations[] and PREFIX_n_migrations, of the type
# struct PREFIX_migration that HEADER declares. Files must be numbered
# 001, 002, ... without gaps: migration N brings the database to version
# N, so a gap or a duplicate fails the build.
file(GLOB files "${SCHEMA_DIR}/*.sql")
list(SORT files)
set(body "")
set(table "")
set(n 0)
foreach(f IN LISTS files)
  get_filename_component(name "${f}" NAME)
  math(EXPR n "${n} + 1")
  if(NOT name MATCHES "^([0-9][0-9][0-9])_[A-Za-z0-9_]+\\.sql$")
    message(FATAL_ERROR "${SCHEMA_DIR}/${name}: expected NNN_name.sql")
  endif()
  math(EXPR num "${CMAKE_MATCH_1}")  # strips the leading zeros
  if(NOT num EQUAL n)
    message(FATAL_ERROR "${SCHEMA_DIR}/${name}: expected migration number ${n}")
  endif()
  file(READ "${f}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)"
         "\\1\n    " bytes "${bytes}")
  string(APPEND body "static const char m${n}[] = {\n    ${bytes}0x00};\n")
  string(APPEND table "    { \"${name}\", m${n} },\n")
endforeach()
if(n EQUAL 0)
  message(FATAL_ERROR "no migrations in ${SCHEMA_DIR}")
endif()
set(text "/* Generated from the .sql files of ${SCHEMA_DIR} by src/store/embed_schema.cmake. */\n\
#include \"${HEADER}\"\n\n${body}\n\
const struct ${PREFIX}_migration ${PREFIX}_migrations[] = {\n${table}};\n\
const int ${PREFIX}_n_migrations = ${n};\n")
file(WRITE "${OUT}" "${text}")
