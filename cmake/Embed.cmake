# Writes the bytes of INPUT as a C array named NAME (plus NAMESize, the byte
# count) into OUTPUT, with a NUL after the last byte so that text (PTX) can be
# used as a C string.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR size "${digits} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUTPUT}"
  "// Generated from ${INPUT} by Embed.cmake; do not edit.\n"
  "static const unsigned char ${NAME}[] = {${bytes} 0};\n"
  "static const unsigned long ${NAME}Size = ${size};\n")
