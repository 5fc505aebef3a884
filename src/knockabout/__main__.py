from knockabout.cli.main import app

app()
