/*
 * A stand-in for Windows' bcryptprimitives.dll, for running torchlint.exe
 * under a Wine that lacks it (Debian 12's Wine 8.0). Go's runtime (1.24
 * and later) loads ProcessPrng from it, which every Windows 10 and later
 * has; this one draws the bytes from RtlGenRandom. The tests build it with
 * MinGW-w64 and put it in the Wine prefix's system32 only when the prefix
 * has no bcryptprimitives.dll of its own. It is never shipped.
 */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
