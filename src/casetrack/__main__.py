from casetrack.cli.app import main

main()
