"""The games shipped with alfabeta. Compiled: fibonacci-nim, trgd, tree; plain Python:
tictactoe (the worked example of a third-party-style game plugin)."""
