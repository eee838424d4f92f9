@echo off
rem The engine runs this file on Windows; the plugin's bundle sits beside it in plugin\.
rem It needs nothing but Node.js >= 22, checked first so a missing or old Node.js is named.
setlocal
where node >nul 2>nul
if errorlevel 1 (
  echo pulumi-resource-nsp: Node.js ^>= 22 is required but 'node' was not found on PATH; install Node.js 22 or later ^(https://nodejs.org^) 1>&2
  exit /b 1
)
for /f "tokens=1 delims=." %%v in ('node --version') do set "NSP_NODE_MAJOR=%%v"
set "NSP_NODE_MAJOR=%NSP_NODE_MAJOR:v=%"
if %NSP_NODE_MAJOR% LSS 22 (
  echo pulumi-resource-nsp: Node.js ^>= 22 is required but 'node' on PATH is major version %NSP_NODE_MAJOR%; install Node.js 22 or later 1>&2
  exit /b 1
)
rem No heap cap (it would crash on a large zone); the heap grows only 20% past the live data, as in pulumi-resource-nsp.
node --heap-growing-percent=20 --max-semi-space-size=4 --expose-gc "%~dp0plugin\provider.mjs" %*
