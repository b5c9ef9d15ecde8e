# 6th Generation Intel Core (Skylake client): docs/platform-skl.md
ucm_platform(10 ucm_plat_skl ucm_plat_skl.c ucm_plat_skl_mach.c)
