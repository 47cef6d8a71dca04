# embed_schema.cmake - turns schema/NNN_*.sql into a C array at build time,
# so the daemon carries its migrations and needs no files at run time.
#   cmake -DSCHEMA_DIR=<dir> -DOUT=<file.c> -P embed_schema.cmake
# Files must be numbered 001, 002, ... without gaps: migration N sets
# PRAGMA user_version = N, so a gap or a duplicate fails the build.
file(GLOB files "${SCHEMA_DIR}/*.sql")
list(SORT files)
set(body "")
set(table "")
set(n 0)
foreach(f IN LISTS files)
  get_filename_component(name "${f}" NAME)
  math(EXPR n "${n} + 1")
  if(NOT name MATCHES "^([0-9][0-9][0-9])_[A-Za-z0-9_]+\\.sql$")
    message(FATAL_ERROR "schema/${name}: expected NNN_name.sql")
  endif()
  math(EXPR num "${CMAKE_MATCH_1}")  # strips the leading zeros
  if(NOT num EQUAL n)
    message(FATAL_ERROR "schema/${name}: expected migration number ${n}")
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
set(text "/* Generated from the .sql files of schema/ by src/store/embed_schema.cmake. */\n\
#include \"store/store_int.h\"\n\n${body}\n\
const struct store_migration store_migrations[] = {\n${table}};\n\
const int store_n_migrations = ${n};\n")
file(WRITE "${OUT}" "${text}")
