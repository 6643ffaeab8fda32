"""One module per `warden` subcommand; each exposes `register(subparsers)`."""
