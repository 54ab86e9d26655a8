"""Executes a notebook top to bottom with nbclient on the loadlab kernel, as JupyterLab's and
Notebook 7's "Run All" does; exits 1 naming the first cell with an error output.
Usage: python run_notebook.py NOTEBOOK TIMEOUT_S"""
import sys

import nbclient
import nbformat

path, timeout = sys.argv[1], int(sys.argv[2])
nb = nbformat.read(path, as_version=4)
client = nbclient.NotebookClient(nb, kernel_name="loadlab", timeout=timeout, allow_errors=True,
                                 resources={"metadata": {"path": "."}})
client.execute()
for index, cell in enumerate(nb.cells):
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            print(f"{path}: cell {index}: {output.get('ename')}: {output.get('evalue')}")
            sys.exit(1)
print(f"{path}: {len(nb.cells)} cells, no error (nbclient {nbclient.__version__})")
