from sgfcheck.cli import main

main()
