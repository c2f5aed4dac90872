"""The benchmark harness: `python -m finsearch eval DATASET --format … --variants … --out DIR`.

    datasets   read an mcq or FinSearchComp file into `Question`s
    variants   answer one question as one system variant (full, llm-only, ablations)
    grading    read the letter of an mcq answer; run a FinSearchComp record's own judge
    runner     run every question of every variant (threads, timeout, resume) into results files
    summary    results files → summary.json and summary.md
    rewards    per-question trajectories with reward components, for an RL trainer
    cli        the `eval` subcommand
    understanding  how the rule-based reading scores on a table of typed questions
                   (`python -m finsearch.evaluate.understanding FILE`)

Like the rest of `finsearch`, nothing here imports streamlit.
"""
