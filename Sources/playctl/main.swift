import PlayctlCLI
