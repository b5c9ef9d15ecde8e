# edit_tree.cmake - a copy of the taken driver (IN) with one edit (OUT):
# in FILE, the text FROM becomes TO.  The test of the kernel developer's
# loop builds the driver from it (t_linux_edit); a FROM no longer in the
# driver is an error, not a silent no-op.
foreach(f ${FILES})
  get_filename_component(d ${OUT}/${f} DIRECTORY)
  file(MAKE_DIRECTORY ${d})
  configure_file(${IN}/${f} ${OUT}/${f} COPYONLY)
endforeach()
file(READ ${OUT}/${FILE} text)
string(FIND "${text}" "${FROM}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "edit_tree: '${FROM}' is not in ${FILE}")
endif()
string(REPLACE "${FROM}" "${TO}" text "${text}")
file(WRITE ${OUT}/${FILE} "${text}")
