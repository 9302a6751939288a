"""What people read: plots, the HTML report, the command line."""
