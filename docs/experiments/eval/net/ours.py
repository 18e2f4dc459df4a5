import subprocess,numpy as np,sys,os
# ours.py LAB VARIANT OUT.npy : our static eval (white side, cp) per labelled FEN (binary: $MC; run it
# from a directory without variants/ so the built-in weights are used)
rows=[l.rstrip().rsplit('|',1) for l in open(sys.argv[1])]
fens=[r[0] for r in rows]; res=[]
for i in range(0,len(fens),50000):
    ch=fens[i:i+50000]
    inp='uci\nsetoption name UCI_Variant value %s\n'%sys.argv[2]+''.join('position fen %s\neval\n'%f for f in ch)+'quit\n'
    out=subprocess.run([os.environ.get('MC','modern-chess'),'uci'],input=inp,capture_output=True,text=True).stdout
    tot=[float(l.split()[2])*100 for l in out.splitlines() if l.startswith('Total evaluation')]
    assert len(tot)==len(ch); res+=tot
np.save(sys.argv[3],np.array(res,dtype=np.float32)); print(len(res))
