from referee.ops.cli import main

main(["worker"])
