from crumb.cli import main

main()
