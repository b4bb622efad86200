/** Programs that run their `-c` (or `/c`) argument as a shell command, in every language's spec. */
export const SHELLS = ['sh', 'bash', 'zsh', 'dash', 'ksh', 'cmd', 'cmd.exe', 'powershell', 'powershell.exe', 'pwsh'];
