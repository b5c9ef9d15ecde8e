# ctest/restored.awk - used by robust_cli.sh.
# restored.awk LOG: every register the session wrote ends with the value it
# had before its first write (read then, as the driver saves it).  Prints
# each that does not, and "restored N" on success.
$1 == "rdmsr" && $4 == "->" { k = "msr " $2 " " $3; if (!(k in w)) orig[k] = $5 }
$1 == "pcird" && $5 == "->" { k = "pci " $2 " " $3 " " $4; if (!(k in w)) orig[k] = $6 }
$1 == "mmiord" && $4 == "->" { k = "mmio " $2 " " $3; if (!(k in w)) orig[k] = $5 }
$1 == "wrmsr" && $5 == "->" && $6 == "rc=0" { k = "msr " $2 " " $3; w[k] = 1; last[k] = $4 }
$1 == "pciwr" && $6 == "->" && $7 == "rc=0" { k = "pci " $2 " " $3 " " $4; w[k] = 1; last[k] = $5 }
$1 == "mmiowr" && $5 == "->" && $6 == "rc=0" { k = "mmio " $2 " " $3; w[k] = 1; last[k] = $4 }
END {
	n = 0; bad = 0
	for (k in w) {
		n++
		if (!(k in orig)) { print "written, never read before: " k; bad++ }
		else if (last[k] != orig[k]) { print "not restored: " k " was " orig[k] ", left " last[k]; bad++ }
	}
	if (bad || !n) exit 1
	print "restored " n
}
