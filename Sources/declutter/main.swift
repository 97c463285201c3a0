import DeclutterCLI

Declutter.runAsMain()
