# take_tree.cmake - copies the uncore driver's files (FILES, relative paths)
# from a Linux tree (TREE) into the build (OUT), for UNCORE_LINUX_TREE.
foreach(f ${FILES})
  get_filename_component(d ${OUT}/${f} DIRECTORY)
  file(MAKE_DIRECTORY ${d})
  configure_file(${TREE}/${f} ${OUT}/${f} COPYONLY)
endforeach()
