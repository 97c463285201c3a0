import DeclutterCommandLine

BenchCommand.runAsMain()
