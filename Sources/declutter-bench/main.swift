import DeclutterCLI

BenchCommand.runAsMain()
