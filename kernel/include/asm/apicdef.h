/* asm/apicdef.h - the local APIC definitions the uncore driver's headers pull
 * in; it uses none of them directly. */
#ifndef UCK_ASM_APICDEF_H
#define UCK_ASM_APICDEF_H
#define BAD_APICID 0xFFFFu
#endif
