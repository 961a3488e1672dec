"""Live capture (layer 5, beside the importers): harness hooks that append to the trajectory
while the agent works.

``coldstart hook <harness>`` reads one hook payload, an ``adapter`` translates it into
canonical records, ``capture`` appends them under the run lock within a time budget and never
fails the agent's session; ``crosscheck`` reconciles a later ``trace import`` of the harness's
own session file with what was recorded live (one call, not two; every difference a finding).
"""
