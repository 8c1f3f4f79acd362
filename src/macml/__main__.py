from macml.cli import main

main()
