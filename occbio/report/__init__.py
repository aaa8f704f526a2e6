"""What a finished run tells its readers: the statistics funnel, the data card, the chart."""
